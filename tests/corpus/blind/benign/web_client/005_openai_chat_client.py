import os
from openai import OpenAI

client = OpenAI(api_key=os.environ["OPENAI_API_KEY"])
resp = client.chat.completions.create(
    model="gpt-4o-mini",
    messages=[{"role": "system", "content": "You are terse."},
              {"role": "user", "content": "Name three sorting algorithms."}],
)
print(resp.choices[0].message.content)
