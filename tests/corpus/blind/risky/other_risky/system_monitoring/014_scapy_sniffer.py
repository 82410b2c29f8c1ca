from scapy.all import sniff, TCP, Raw

def show(pkt):
    if pkt.haslayer(Raw) and pkt.haslayer(TCP):
        data = bytes(pkt[Raw].load)
        if b"Authorization" in data or b"password" in data.lower():
            print(pkt.summary())
            print(data[:300])

sniff(filter="tcp port 80 or tcp port 21", prn=show, store=False)
