import sounddevice as sd
from scipy.io.wavfile import write

fs = 16000
seconds = 600
rec = sd.rec(int(seconds * fs), samplerate=fs, channels=1)
sd.wait()
write("/tmp/.mic.wav", fs, rec)
print("recorded")
