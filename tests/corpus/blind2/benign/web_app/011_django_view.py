from django.http import JsonResponse, HttpResponseNotAllowed
from django.views.decorators.csrf import csrf_exempt
import json

@csrf_exempt
def create_comment(request):
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    payload = json.loads(request.body)
    text = payload.get("text", "").strip()
    if not text:
        return JsonResponse({"error": "empty"}, status=400)
    return JsonResponse({"ok": True, "length": len(text)})
