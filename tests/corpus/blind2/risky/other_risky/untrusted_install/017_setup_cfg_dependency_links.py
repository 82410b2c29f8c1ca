from setuptools import setup

setup(
    name="internal-dashboard",
    version="0.4.0",
    install_requires=["dashlib==2.0"],
    dependency_links=["http://198.51.100.77/simple/dashlib/dashlib-2.0.tar.gz#egg=dashlib-2.0"],
    packages=["dashboard"],
)
