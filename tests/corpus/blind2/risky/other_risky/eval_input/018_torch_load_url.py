import torch

state = torch.hub.load_state_dict_from_url("http://models.free-weights.cc/resnet_custom.pth",
                                            map_location="cpu", weights_only=False)
print(len(state), "tensors")
model_extra = torch.load("downloaded_model.pt", weights_only=False)
print(type(model_extra))
