import argparse
import os
import boto3

ap = argparse.ArgumentParser(description="Upload a report to our S3 bucket")
ap.add_argument("file")
ap.add_argument("--bucket", default="acme-reports")
ap.add_argument("--prefix", default="weekly/")
a = ap.parse_args()

s3 = boto3.client("s3")
key = a.prefix + os.path.basename(a.file)
s3.upload_file(a.file, a.bucket, key)
print(f"s3://{a.bucket}/{key}")
