from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from .models import Article


@require_GET
def article_detail(request, slug):
    article = get_object_or_404(Article, slug=slug, published=True)
    return JsonResponse({
        "title": article.title,
        "body": article.body,
        "author": article.author.get_full_name(),
        "published_at": article.published_at.isoformat(),
    })
