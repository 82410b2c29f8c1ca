from dataclasses import dataclass, field
import yaml


@dataclass
class Training:
    lr: float = 1e-3
    epochs: int = 10
    batch_size: int = 32
    layers: list = field(default_factory=lambda: [128, 64])


with open("train.yaml") as fh:
    raw = yaml.safe_load(fh)
cfg = Training(**raw.get("training", {}))
print(cfg)
