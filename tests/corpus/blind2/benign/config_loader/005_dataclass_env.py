import os
from dataclasses import dataclass, field

@dataclass
class Settings:
    port: int = field(default_factory=lambda: int(os.getenv("APP_PORT", "8000")))
    log_level: str = field(default_factory=lambda: os.getenv("APP_LOG_LEVEL", "INFO"))
    db_url: str = field(default_factory=lambda: os.getenv("APP_DB_URL", "sqlite:///app.db"))

settings = Settings()
print(settings)
