"""Shake That City (AEG 2023): board data, scoring, variants and round flow."""
