import pandas as pd
import streamlit as st

st.title("Sales dashboard")
uploaded = st.file_uploader("CSV file", type="csv")
if uploaded:
    df = pd.read_csv(uploaded)
    col = st.selectbox("Group by", df.columns)
    st.bar_chart(df.groupby(col).size())
    st.dataframe(df.head(100))
