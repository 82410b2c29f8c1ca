import torch
from torch import nn

X = torch.linspace(-1, 1, 200).unsqueeze(1)
y = 3 * X ** 2 + 0.1 * torch.randn_like(X)
model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(500):
    loss = nn.functional.mse_loss(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("final loss", loss.item())
