"""The only streamlit-aware part of the package: state keys, cached wrappers, text catalogue, widgets."""
