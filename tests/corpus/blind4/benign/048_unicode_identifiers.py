"""Physics helpers written with Unicode identifiers (π, Δ, λ) as in the textbook."""
import math

π = math.pi
c = 299_792_458.0


def wavelength(f):
    λ = c / f
    return λ


def circle_area(r):
    return π * r ** 2


def change(a, b):
    Δ = b - a
    return Δ


def main():
    print("λ(100 MHz) =", round(wavelength(100e6), 3), "m")
    print("A(r=2) =", round(circle_area(2), 4))
    print("Δ =", change(3.5, 10))


if __name__ == "__main__":
    main()
