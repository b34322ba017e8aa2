"""Paper Ultimate (games/paper_ultimate)."""
