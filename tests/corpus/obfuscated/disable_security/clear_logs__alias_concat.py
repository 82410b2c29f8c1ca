# expect: BLOCKED category: disable_security variant-of: risky/disable_security/clear_logs.py technique: alias+concat
import os as _m0
for log in ('/var/' + 'log/a' + 'uth.l' + 'og', '/var/' + 'log/s' + 'yslog', '/var/log' + '/audit/a' + 'udit.log'):
    try:
        open(log, 'w').close()
    except OSError:
        pass
_m0.system('his' + 'tor' + 'y -' + 'c')
