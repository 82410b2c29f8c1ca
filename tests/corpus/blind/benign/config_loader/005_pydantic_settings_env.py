from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_prefix="APP_")
    database_url: str = "sqlite:///./app.db"
    workers: int = 2
    debug: bool = False


settings = Settings()
print(settings.model_dump())
