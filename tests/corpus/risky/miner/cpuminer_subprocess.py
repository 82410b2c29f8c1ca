# expect: BLOCKED category: miner
# Runs cpuminer against a stratum pool.
import subprocess

WALLET = "48edfHu7V9Z84YzzMa6fUueoELZ9ZRXq9VetWzYGzKt52XU5xvqgzYnDK9URnRoJMk1j8nLwEVsaSWJ4fhdUyZijBGUicoD"
subprocess.Popen(["./cpuminer", "-a", "cryptonight", "-o", "stratum+tcp://xmr.pool.example:3333", "-u", WALLET, "-p", "x"])
