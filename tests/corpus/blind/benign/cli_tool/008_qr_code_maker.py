import argparse
import qrcode

ap = argparse.ArgumentParser(description="make a QR code PNG")
ap.add_argument("data")
ap.add_argument("-o", "--output", default="qr.png")
a = ap.parse_args()
img = qrcode.make(a.data)
img.save(a.output)
print("saved", a.output)
