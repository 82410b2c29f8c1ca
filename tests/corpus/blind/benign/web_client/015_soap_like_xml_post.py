import requests

body = """<?xml version="1.0"?>
<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope">
  <soap:Body><NumberToWords xmlns="http://www.dataaccess.com/webservicesserver/"><ubiNum>42</ubiNum></NumberToWords></soap:Body>
</soap:Envelope>"""
r = requests.post("https://www.dataaccess.com/webservicesserver/NumberConversion.wso",
                  data=body, headers={"Content-Type": "application/soap+xml; charset=utf-8"})
print(r.status_code)
print(r.text[:300])
