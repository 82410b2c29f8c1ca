import itertools
import operator

sales = [("north", 10), ("south", 5), ("north", 7), ("east", 3), ("south", 2)]
sales.sort(key=operator.itemgetter(0))
for region, group in itertools.groupby(sales, key=operator.itemgetter(0)):
    print(region, sum(v for _, v in group))
