"""One table: a match under its format and tie-breaks, the referee and its fault policy, one match from names."""
