# expect: BENIGN category: data_processing
import numpy as np

data = np.loadtxt("matrix.txt")
normalised = (data - data.mean(axis=0)) / data.std(axis=0)
np.savetxt("normalised.txt", normalised, fmt="%.4f")
print(normalised.shape)
