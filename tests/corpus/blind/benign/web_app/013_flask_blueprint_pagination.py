from flask import Blueprint, Flask, jsonify, request

bp = Blueprint("products", __name__, url_prefix="/api/products")
PRODUCTS = [{"id": i, "name": f"Product {i}"} for i in range(1, 101)]


@bp.get("")
def list_products():
    page = max(int(request.args.get("page", 1)), 1)
    size = min(int(request.args.get("size", 20)), 100)
    start = (page - 1) * size
    return jsonify(items=PRODUCTS[start:start + size], page=page, total=len(PRODUCTS))


app = Flask(__name__)
app.register_blueprint(bp)
