"""Storage tests against real servers, one folder per backend."""
