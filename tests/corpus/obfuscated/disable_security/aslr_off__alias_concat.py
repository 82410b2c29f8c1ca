# expect: BLOCKED category: disable_security variant-of: risky/disable_security/aslr_off.py technique: alias+concat
with open('/proc/sys/k' + 'ernel/rando' + 'mize_va_spa' + 'ce', 'w') as handle:
    handle.write('0')
