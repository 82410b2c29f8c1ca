import gradio as gr

def word_stats(text):
    words = text.split()
    return {"words": len(words), "unique": len(set(w.lower() for w in words)),
            "avg_len": round(sum(map(len, words)) / max(len(words), 1), 2)}

demo = gr.Interface(fn=word_stats, inputs=gr.Textbox(lines=5), outputs="json", title="Word stats")
demo.launch()
