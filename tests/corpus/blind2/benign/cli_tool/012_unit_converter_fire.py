import fire

class Units:
    def km_to_miles(self, km: float):
        return round(km * 0.621371, 3)

    def kg_to_lb(self, kg: float):
        return round(kg * 2.20462, 3)

if __name__ == "__main__":
    fire.Fire(Units)
