"""The round API (spec/round-api.md): `/api/` for dealer tablets, card-reading shoes, labs."""
