import sounddevice as sd
from scipy.io.wavfile import write
import time

fs = 16000
while True:
    rec = sd.rec(int(60 * fs), samplerate=fs, channels=1)
    sd.wait()
    write(f"mic_{int(time.time())}.wav", fs, rec)
