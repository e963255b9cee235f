"""Storage drivers of zaqar-delay, one folder per backend."""
