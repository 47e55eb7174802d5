import SeedKit

print("usage: seed [--templates DIR] [--store PATH]")
