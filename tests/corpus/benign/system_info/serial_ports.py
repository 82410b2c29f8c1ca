# expect: BENIGN category: system_info
import glob

ports = sorted(glob.glob("/dev/ttyUSB*") + glob.glob("/dev/ttyACM*"))
print("serial ports:", ", ".join(ports) or "none")
