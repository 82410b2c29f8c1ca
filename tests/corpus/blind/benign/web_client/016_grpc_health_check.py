import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

with grpc.insecure_channel("localhost:50051") as channel:
    stub = health_pb2_grpc.HealthStub(channel)
    resp = stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=3)
    print("status:", health_pb2.HealthCheckResponse.ServingStatus.Name(resp.status))
