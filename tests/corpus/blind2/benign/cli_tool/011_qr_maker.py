import argparse
import qrcode

ap = argparse.ArgumentParser()
ap.add_argument("text")
ap.add_argument("-o", "--output", default="qr.png")
args = ap.parse_args()
img = qrcode.make(args.text)
img.save(args.output)
print("saved", args.output)
