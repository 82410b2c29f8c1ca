import sys
from google.cloud import storage

def upload(bucket_name, source, dest):
    client = storage.Client()
    blob = client.bucket(bucket_name).blob(dest)
    blob.upload_from_filename(source)
    return blob.public_url

if __name__ == "__main__":
    src = sys.argv[1]
    print(upload("my-team-datasets", src, "uploads/" + src.split("/")[-1]))
