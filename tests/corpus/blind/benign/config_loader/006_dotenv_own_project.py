import os
from dotenv import load_dotenv

load_dotenv()  # reads .env from the current project
api_url = os.getenv("API_URL", "http://localhost:3000")
timeout = float(os.getenv("API_TIMEOUT", "5"))
print(f"client configured for {api_url} (timeout {timeout}s)")
