import nltk
from nltk.corpus import stopwords
from nltk.tokenize import word_tokenize

nltk.download("punkt", quiet=True)
nltk.download("stopwords", quiet=True)
text = open("article.txt").read()
tokens = [t.lower() for t in word_tokenize(text) if t.isalpha()]
content = [t for t in tokens if t not in stopwords.words("english")]
print(nltk.FreqDist(content).most_common(15))
