import pip

# pip's internal API, as in old tutorials
pip.main(["install", "https://files.example-cdn.net/pkgs/fastjson-0.3.1.tar.gz"])
print("installed fastjson")
