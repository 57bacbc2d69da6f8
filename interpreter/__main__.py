from interpreter.cli import main

raise SystemExit(main())
