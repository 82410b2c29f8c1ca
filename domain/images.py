"""Which sandbox image a run may ask for (issue #25): the default one (the interpreter and nothing
else) always; a named one (``data``: numpy, pandas, matplotlib, scipy) only for the trust levels
the policy lists (``images:`` in policies/limits.yaml). Pure, no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import DomainError
from .levels import TrustLevel

DEFAULT_IMAGE = "default"


class ImageNotAllowed(DomainError):
    """A run asked for an image the policy does not name, or does not grant its trust level."""

    field = "image"


@dataclass(frozen=True)
class NamedImage:
    tag: str
    trust: frozenset[TrustLevel]


@dataclass(frozen=True)
class SandboxImages:
    """The images a run may ask for by name, beside the default."""

    named: dict[str, NamedImage] = field(default_factory=dict)

    def check(self, name: str, trust: TrustLevel) -> str:
        """``name`` if a run of ``trust`` may have it; else ImageNotAllowed, saying what may."""
        if name == DEFAULT_IMAGE:
            return name
        image = self.named.get(name)
        if image is None:
            known = ", ".join([DEFAULT_IMAGE, *sorted(self.named)])
            raise ImageNotAllowed(f"there is no sandbox image named {name!r}: ask for one of {known}")
        if trust not in image.trust:
            allowed = ", ".join(sorted(level.value for level in image.trust)) or "no trust level"
            raise ImageNotAllowed(f"the {name} image is for {allowed} code, and this code is {trust.value}: run it on the default image")
        return name

    def tags(self) -> dict[str, str]:
        return {name: image.tag for name, image in self.named.items()}
