"""The rules of the whole tree: layers as folders, the one game contract, private names."""
