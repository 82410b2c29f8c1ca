import sys
import boto3

def upload(path, bucket, key=None):
    s3 = boto3.client("s3")
    s3.upload_file(path, bucket, key or path.split("/")[-1])
    print(f"s3://{bucket}/{key or path}")

if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: upload.py FILE BUCKET [KEY]")
    upload(*sys.argv[1:4])
