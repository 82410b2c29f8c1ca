import zmq

ctx = zmq.Context()
sock = ctx.socket(zmq.REP)
sock.bind("tcp://127.0.0.1:5555")
while True:
    msg = sock.recv_json()
    sock.send_json({"sum": sum(msg.get("numbers", []))})
