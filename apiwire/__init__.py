"""What both sides of the wire share, and nothing else: the model catalog (data)."""
