"""Native implementations of library functions, written directly in one framework.

``<framework>_<library>.py`` defines ``FUNCTIONS``: hedera function name -> an implementation
with the same parameters, on that framework's arrays. ``library_overhead.py`` checks each
against the hedera result before timing it (the paper's baseline (b)), and
``lines_of_code.py`` counts them (RQ2: what the library would cost per framework).
"""
