"""single"""
