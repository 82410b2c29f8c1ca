from pydantic_settings import BaseSettings, SettingsConfigDict

class AppSettings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_prefix="SHOP_")
    db_url: str = "sqlite:///shop.db"
    page_size: int = 20
    debug: bool = False

if __name__ == "__main__":
    s = AppSettings()
    print(s.model_dump())
