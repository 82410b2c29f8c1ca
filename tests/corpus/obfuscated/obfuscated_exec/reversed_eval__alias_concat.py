# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/reversed_eval.py technique: alias+concat
hidden = ")'di'(met" + "sys.)'so'" + '(__tropmi' + '__'
eval(hidden[::-1])
